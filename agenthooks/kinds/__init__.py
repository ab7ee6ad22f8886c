"""Kinds of hook: each runs the selected specs of its kind for one call and returns outcomes.

A kind never decides what an outcome means for the event: `combine.fold` and the host do.
"""
