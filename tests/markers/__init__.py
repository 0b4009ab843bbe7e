"""The test markers' own tests (tests/conftest.py marks every test by what it uses)."""
