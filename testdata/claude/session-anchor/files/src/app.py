"""A tiny app that greets."""


def main():
    print("hello")


if __name__ == "__main__":
    main()
