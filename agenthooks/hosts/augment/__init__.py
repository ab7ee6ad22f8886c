"""Augment (Auggie) as a host: its writer (`render`) and its handlers' protocol (`protocol`)."""
