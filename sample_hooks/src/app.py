"""A tiny, clean module for the lint-on-write sample hook to read."""


def greet(name: str) -> str:
    return f"Hello, {name}!"


if __name__ == "__main__":
    print(greet("world"))
