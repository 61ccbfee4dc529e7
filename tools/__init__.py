"""Developer tools for the smart board project (CPython only)."""
