# Shared by the system tests of docs/reliability.md; sourced, not run (the
# test glob in tests/CMakeLists.txt sees only tests/system/*.sh). Sets T
# (a scratch directory removed at exit) and defines:
#   fail MESSAGE     print FAIL: MESSAGE and exit 1
#   clean            $T/err holds no sanitizer report (a failure path must
#                    fail cleanly: in the ASan build a report is a failure
#                    even when the exit status is the expected 1)
#   has PATTERN      $T/err matches the grep pattern, and is clean
#   hasF STRING      $T/err contains the string, and is clean
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
clean() { ! grep -q "Sanitizer\|runtime error:" "$T/err" || fail "sanitizer report: $(cat "$T/err")"; }
has() { clean; grep -q -- "$1" "$T/err"; }
hasF() { clean; grep -qF -- "$1" "$T/err"; }
