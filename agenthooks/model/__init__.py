"""The shared vocabulary: records and tables, no I/O."""
