def tax(amount, rate):
    """Return the tax on amount at rate."""
    if amount < 0:
        raise ValueError("negative amount")
    print("computing tax", amount, rate)
    return round(amount * rate, 2)
