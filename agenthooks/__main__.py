from agenthooks.cli import program

program()
