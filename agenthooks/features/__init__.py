"""What agenthooks does with hook files beside running them, each over the pipeline's
packages and below the command line: `convert` (one format written as another, and `carry`,
which checks a converted matcher selects the same tools)."""
