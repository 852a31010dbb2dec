"""Which tier each test is in: the markers tests/conftest.py gives each collected test, so that
``scripts/test-fast`` can leave out with ``-m`` what needs a browser, a database server, several
servers or more than about 1.5 s; and which Hypothesis profile a run uses.

- ``browser``: every test in tests/browser;
- ``dbservers``: a test that asks for PostgreSQL or Redis (the ``postgres`` and ``redis_server``
  fixtures, or a parameter ``"postgresql"`` whose fixture asks for one with
  ``request.getfixturevalue``), and the tests of the throwaway servers themselves;
- ``cluster``: a server test that asks for Redis, which a server needs only to share its tables
  with another (the nginx proxy test is one of them);
- ``slow``: the tests named in SLOW_TESTS.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

# The markers pyproject.toml registers, and the expression that leaves them all out.
MARKERS = ("browser", "dbservers", "cluster", "slow")
FAST = " and ".join(f"not {marker}" for marker in MARKERS)

TESTS = Path(__file__).resolve().parent

# Tests that take more than about 1.5 s on an idle 2-core machine, 2 s and more on a loaded one
# (measured with --durations=0), as "path under tests/::function", for every parametrization, or
# "path::function[id]" for one.
SLOW_TESTS = frozenset(
    {
        "test_calibration.py::test_a_match_gives_the_searching_side_s_won_bids_with_chances_and_outcomes",
        "test_calibration.py::test_the_bench_ends_with_its_lines_and_refuses_an_unknown_bot",
        # 1 to 6 s for each of its 50 configurations.
        "test_conformance.py::test_random_matches_keep_the_rules",
        "test_gap_bench.py::test_sighted_the_bench_adds_the_expert_shown_the_cards_at_the_auction_and_the_trump",
        "test_gap_bench.py::test_the_bench_ends_with_its_lines_and_refuses_what_it_cannot_measure",
        "test_heuristic_bids.py::test_the_fitted_bids_hold_on_fresh_deals",
        "test_matchmaking_bench.py::test_six_people_are_all_seated_without_an_error_and_the_bench_ends_with_its_lines",
        "test_omniscient.py::test_a_sighted_expert_searches_the_true_deal_only_where_it_sees",
        "test_omniscient.py::test_sighted_experts_are_named_in_the_arena_only",
        "test_omniscient.py::test_the_omniscient_bot_plays_only_legal_actions[ten_point-5]",
        "test_play_loss_bench.py::test_random_play_loses_more_than_the_heuristic_and_the_shares_add_up",
        # Self-play, a solve and the bot levels asked: 7 to 9 s.
        "test_practice_build.py::test_a_position_shows_the_seat_s_view_at_that_moment_and_its_id_is_stable",
        "test_practice_build.py::test_build_writes_valid_json_lines_and_refuses_bad_arguments",
        # 0.5 to 2 s for each of its 50 configurations: a third of the fast tier's time.
        "test_sampler.py::test_a_sample_is_consistent_with_the_view",
        "test_review.py::test_a_player_who_always_passes_and_plays_its_first_card_loses_more_than_the_expert",
        "test_review.py::test_the_expert_s_own_decisions_judged_with_its_own_budget_cost_nothing",
        "test_setup_scripts.py::test_install_runs_then_is_skipped_until_its_inputs_change",
        "server/test_admin.py::test_a_banned_address_is_refused_at_connect_and_by_the_api_then_let_in_after_unban",
        "server/test_admin.py::test_deleted_chat_lines_leave_every_page_and_storage",
        "server/test_admin.py::test_a_banned_profile_is_refused_at_table_creation_and_by_the_api_then_let_in_after_unban",
        "server/test_advice.py::test_a_seat_in_the_auction_gets_every_choice_with_its_chances",
        "server/test_background_work.py::test_a_flood_of_reviews_fills_its_own_queue_and_a_seated_players_hint_is_answered",
        "server/test_background_work.py::test_a_lane_whose_process_died_answers_server_busy_then_works_in_a_new_one",
        "server/test_background_work.py::test_a_stored_record_the_engine_refuses_is_answered_422_without_a_traceback",
        "server/test_background_work.py::test_replays_and_uploads_do_not_wait_for_the_database_reading_threads",
        # Plays a match to 11 against two bots, reviews it and solves up to five decisions: 4 to 9 s.
        "server/test_practice_from_match.py::test_a_match_s_costliest_decisions_become_its_owner_s_own_positions",
        # A real smear serve each, storing the 533 starter positions (or not) before it answers.
        "server/test_practice_starter.py::test_smear_serve_starts_a_new_database_with_the_starter_positions_unless_told_not_to",
        "server/test_practice_starter.py::test_a_new_database_gets_the_starter_positions_once",
        # Plays a match to 11 against two Experts: 5 to 8 s.
        "server/test_bot_naming.py::test_a_bot_carries_its_level_at_the_table_in_the_history_the_replay_and_the_leaderboard",
        "server/test_benchtools.py::test_the_stack_floor_bench_plays_tables_and_ends_with_its_lines",
        "server/test_chaos.py::test_kills_lose_nothing",
        "server/test_fuzz.py::test_fuzz_run_finds_no_server_error_and_no_state_change_from_a_refused_request",
        "server/test_leaks.py::test_no_message_shows_a_card_its_recipient_may_not_see[house-4-teams]",
        "server/test_leaks.py::test_no_message_shows_a_card_its_recipient_may_not_see[widow-3]",
        "server/test_leaks.py::test_no_message_shows_a_card_its_recipient_may_not_see[ten_point-6-teams]",
        "server/test_leaks.py::test_no_message_shows_a_card_its_recipient_may_not_see[five_point-4-kitty]",
        "server/test_leaks.py::test_no_message_shows_a_card_its_recipient_may_not_see[ten_point-4]",
        "server/test_hint_warmup.py::test_warming_loads_the_search_in_a_fresh_process",
        "test_cli.py::test_process_exit_codes_and_stderr_lines",
        "server/test_lifecycle.py::test_a_finished_table_leaves_memory_once_nobody_follows_it_and_can_still_be_watched",
        "server/test_match_review_api.py::test_a_finished_match_answers_its_costliest_decisions_each_judged_from_its_seat",
        "server/test_match_review_api.py::test_reviews_are_paced_per_address_refused_when_their_queue_is_full_and_a_kept_one_is_free",
        # Two smear serve processes, one killed, and two hands of a matchmade table: 10 to 20 s.
        "server/test_matchmaking_cluster.py::test_people_on_two_processes_are_matched_to_one_table_which_outlives_its_owner",
        "server/test_matchmaking.py::test_after_a_match_the_next_starts_with_whoever_plays_again",
        "server/test_matchmaking.py::test_a_person_cut_off_by_a_restart_has_the_turn_limit_to_come_back",
        "server/test_matchmaking_leaks.py::test_a_person_who_arrives_sees_no_card_of_the_seat_before_taking_it",
        "server/test_migrations.py::test_a_database_of_the_server_before_players_keeps_its_rows_and_plays_on_with_profiles",
        "server/test_open_tables.py::test_a_listed_table_is_shown_until_it_is_full_started_or_taken_off_the_list",
        "server/test_players.py::test_replays_of_a_stored_match_and_of_an_uploaded_record",
        "server/test_players.py::test_the_players_api_shows_no_secret_and_nothing_of_a_match_in_progress",
        # Each plays a match (or two) to 11 with two bots: 2 to 4 s.
        "server/test_names_and_finishes.py::test_two_people_of_one_name_get_their_profiles_marks_at_the_table_in_chat_and_in_history",
        "server/test_names_and_finishes.py::test_a_finished_match_counts_finished_and_one_left_in_progress_counts_left",
        "server/test_prometheus.py::test_prometheus_reads_what_two_workers_did",
        "server/test_quarantine.py::test_a_record_that_fails_at_a_restart_does_not_stop_it_and_lands_later",
        "server/test_quarantine.py::test_a_stored_match_the_rules_refuse_is_put_aside_and_every_other_table_is_served",
        "server/test_refused_bodies.py::test_a_record_too_large_to_replay_is_read_to_its_end_and_answered_413",
        "server/test_restart.py::test_a_client_behind_at_the_restart_gets_what_it_missed",
        "server/test_restart.py::test_a_killed_server_loses_no_acknowledged_action",
        "server/test_review_requests.py::test_a_hand_over_is_reviewed_for_the_asking_seat_only",
        "server/test_review_requests.py::test_the_match_is_reviewed_once_it_is_over",
        "server/test_secret_options.py::test_servers_reach_their_database_and_redis_named_by_environment_or_by_files",
        "server/test_server.py::test_a_match_with_bots_runs_to_its_end_its_record_replays_and_play_again_starts_the_next",
        "server/test_server.py::test_a_table_with_a_preset_and_options_plays_them_and_records_them",
        "server/test_server_logs.py::test_a_database_restart_is_one_line_when_it_begins_and_one_when_it_ends",
        "server/test_server_logs.py::test_a_redis_restart_is_one_line_when_it_begins_and_one_when_it_ends",
        "server/test_server_logs.py::test_the_json_log_of_a_match_and_a_refusal_has_its_fields_and_nothing_hidden",
        "server/test_server_logs.py::test_the_text_log_has_time_level_process_and_event",
        "server/test_storage.py::test_every_acknowledged_action_survives_the_process_being_killed",
        "server/test_teams_and_spectators.py::test_a_spectator_sees_the_public_state_and_no_unplayed_card",
        "server/test_transport_door.py::test_sessions_are_given_back_however_they_end",
        "server/test_transport_door.py::test_sigterm_stops_the_server_whatever_its_clients_are_doing",
    }
)
DATABASE_SERVER_FIXTURES = frozenset({"postgres", "redis_server"})
# The tests of the throwaway servers, and of Debian's Prometheus and promtool (installed with them).
DATABASE_SERVER_MODULES = frozenset({"test_dbservers.py", "test_prometheus.py"})


def tiers(item: Any) -> set[str]:
    """The markers of the tiers a collected test belongs to (none for a fast test)."""
    path = Path(item.path).resolve()
    if not path.is_relative_to(TESTS):
        return set()
    where = path.relative_to(TESTS)
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    names = {
        f"{where.as_posix()}::{getattr(item, 'originalname', item.name)}",
        f"{where.as_posix()}::{item.name}",
    }
    marks = set()
    if where.parts[0] == "browser":
        marks.add("browser")
    if (
        fixtures & DATABASE_SERVER_FIXTURES
        or any(isinstance(value, str) and value == "postgresql" for value in params)
        or where.name in DATABASE_SERVER_MODULES
    ):
        marks.add("dbservers")
    if where.parts[0] == "server" and "redis_server" in fixtures:
        marks.add("cluster")
    if names & SLOW_TESTS:
        marks.add("slow")
    return marks


def hypothesis_profile(environment: Mapping[str, str]) -> str:
    """``full`` where CI is set (to anything but empty, 0 or false), else HYPOTHESIS_PROFILE, else
    ``full``."""
    if environment.get("CI", "").strip().lower() not in ("", "0", "false"):
        return "full"
    return environment.get("HYPOTHESIS_PROFILE") or "full"
