"""PC-side tools for the smart game board (CPython only): `python -m host_tools --help`."""
