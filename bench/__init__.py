"""Benchmarks (run as scripts: ``.venv/bin/python bench/<name>.py``)."""
