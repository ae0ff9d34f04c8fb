"""The package version (one home: ``cuelex.__version__``, the CLI's ``--version``, benchmark
manifests)."""

__version__ = "0.1.0"
