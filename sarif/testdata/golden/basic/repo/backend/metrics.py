def collect(cmd):
    os.system(cmd)
    return True
