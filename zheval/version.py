"""The zheval version (``zheval.__version__``): one place, importable by every layer without importing the package's
public API. It is part of every signature and of every content-keyed tokenizer fingerprint."""

__version__ = "0.1.0"
