"""(being built)"""

HELP = "(being built)"


def add_arguments(cmd):
    pass


def run(args):
    print("diag: not built yet")
    return 1
