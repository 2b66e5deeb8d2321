"""A tiny app that greets."""


def greet(name):
    return "hello " + name


def main():
    print(greet("world"))


if __name__ == "__main__":
    # TODO: read the name from argv
    main()
