"""Benchmark result files read: one module per tool's format, and ``loader`` that recognises them."""
