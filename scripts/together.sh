# shellcheck shell=bash
# Sourced by scripts/test: steps that do not depend on each other, run at the same time.

# run_together NAME... runs each named function or command at once, its output kept in a file of its
# own, then shows each step's output in the order given, under its name and the seconds it took. It
# waits for every step, and fails when any did, naming them: one step's failure never leaves another
# running unseen.
run_together() {
    local outputs step failed=()
    local -a pids=()
    outputs=$(mktemp -d)
    echo "At once: $*" >&2
    for step in "$@"; do
        (
            # On the way out, however the step ends (set -e stops it at its first failure).
            started=$SECONDS
            trap "echo \$((SECONDS - started)) >'$outputs/${#pids[@]}.seconds'" EXIT
            "$step"
        ) >"$outputs/${#pids[@]}" 2>&1 &
        pids+=($!)
    done
    local index=0
    for step in "$@"; do
        wait "${pids[$index]}" || failed+=("$step")
        echo "--- $step ($(cat "$outputs/$index.seconds") s)" >&2
        cat "$outputs/$index" >&2
        index=$((index + 1))
    done
    rm -rf "$outputs"
    if ((${#failed[@]})); then
        echo "failed: ${failed[*]}" >&2
        return 1
    fi
}
