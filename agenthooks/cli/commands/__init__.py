"""One module per subcommand; each function does the work and returns the exit code."""
