# Sourced by the CI scripts that build a cached venv under /var/tmp/zheval-ci. .ci/run builds those venvs ahead, in
# the background while README's test command runs (ZHEVAL_CI_VENV_ONLY=1: a script builds its venv, then exits);
# the lock makes a lane that reaches a venv still being built wait for it, then reuse it.
venv_lock() {  # venv_lock DIR: wait for and take DIR's build lock (held until venv_unlock or the script's end)
  mkdir -p "$(dirname "$1")"
  exec {VENV_LOCK_FD}>"$1.lock"
  flock "$VENV_LOCK_FD"
}
venv_unlock() {
  flock -u "$VENV_LOCK_FD"
  exec {VENV_LOCK_FD}>&-
}
venv_only() {  # true when the caller is .ci/run's background build: build the venv, run nothing
  [ "${ZHEVAL_CI_VENV_ONLY:-}" = 1 ]
}
