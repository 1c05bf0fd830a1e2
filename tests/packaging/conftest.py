"""The bundle these tests run is the `bundle` fixture of tests/conftest.py (the bench smoke run of
`frozen_startup` uses it too)."""
