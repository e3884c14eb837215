"""The warlog command line."""
