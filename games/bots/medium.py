from .easy import choose  # noqa: F401  (placeholder until the medium bot lands)
