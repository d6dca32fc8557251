"""Benchmarks: `make bench` (python -m bench) runs every module here that has a main()."""
