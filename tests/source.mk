# tests for source (see tests/local.mk)
