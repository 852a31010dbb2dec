# shellcheck shell=bash
# Sourced by scripts/test: steps that do not depend on each other, run at the same time.

# run_together NAME... runs each named function or command at once, its output kept in a file of its
# own, then shows each step's output in the order given, under its name. It waits for every step,
# and fails when any did, naming them: one step's failure never leaves another running unseen.
run_together() {
    local outputs step failed=()
    local -a pids=()
    outputs=$(mktemp -d)
    echo "At once: $*" >&2
    for step in "$@"; do
        "$step" >"$outputs/${#pids[@]}" 2>&1 &
        pids+=($!)
    done
    local index=0
    for step in "$@"; do
        wait "${pids[$index]}" || failed+=("$step")
        if [ -s "$outputs/$index" ]; then
            echo "--- $step" >&2
            cat "$outputs/$index" >&2
        fi
        index=$((index + 1))
    done
    rm -rf "$outputs"
    if ((${#failed[@]})); then
        echo "failed: ${failed[*]}" >&2
        return 1
    fi
}
