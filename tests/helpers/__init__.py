"""What several test modules share, so that no test module imports another (tests/test_layout.py
holds that): a module per kind of helper, named for what it gives (tests/README.md lists them).
pytest collects nothing here."""
