"""(being built)"""

HELP = "(being built)"


def add_arguments(cmd):
    pass


def run(args):
    print("config: not built yet")
    return 1
