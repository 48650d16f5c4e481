"""Helpers the rule families share: broadcasting, arithmetic, element tracking, subgraphs."""
