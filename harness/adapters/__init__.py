"""Adapters from concrete engines to the engine protocol (``harness.protocol``)."""
