"""Fusion groups (kLoop / kInput / kStitch) decided with the analysis' facts or a baseline."""
