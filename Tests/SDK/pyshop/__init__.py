"""A small shop whose errors carry no codes: the Python service of errtriage's SDK tests (python_shop.py)."""
