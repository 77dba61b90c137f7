"""Tests of the web game (``uno serve``): they need the ``web`` extra (``make setup`` installs it)."""
