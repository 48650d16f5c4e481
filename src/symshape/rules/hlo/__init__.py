"""The stablehlo and mhlo rules."""
