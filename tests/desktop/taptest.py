# Runs a list of check functions and reports them in TAP, the protocol meson reads from the C tests.
# A check fails by raising AssertionError (its message is what the user reads in the test log) and
# is skipped by raising Skip.

import sys
import traceback


class Skip(Exception):
    pass


def run(checks):
    print(f'1..{len(checks)}', flush=True)
    failed = 0
    for number, check in enumerate(checks, start=1):
        name = check.__name__.replace('_', ' ')
        try:
            check()
        except Skip as reason:
            print(f'ok {number} {name} # SKIP {reason}', flush=True)
        except AssertionError as problem:
            failed += 1
            print(f'not ok {number} {name}', flush=True)
            for line in str(problem).splitlines() or ['(no message)']:
                print(f'# {line}', flush=True)
        except Exception:
            failed += 1
            print(f'not ok {number} {name}', flush=True)
            for line in traceback.format_exc().splitlines():
                print(f'# {line}', flush=True)
        else:
            print(f'ok {number} {name}', flush=True)
    sys.exit(1 if failed else 0)
