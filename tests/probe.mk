# tests for probe (see tests/local.mk)
