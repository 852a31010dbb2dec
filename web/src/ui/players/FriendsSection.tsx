// The profile page's Friends section (this browser's own profile only): requests to answer, requests
// waiting, friends with whether they are online and at a table ("Join": a free seat, or watch;
// "Invite to my table"), and the players blocked ("Unblock").

import { useEffect, useState } from "preact/hooks";
import { errorText, t, type TextKey } from "../../i18n";
import { joinOrWatch } from "../../friends";
import {
  acceptFriend,
  endFriend,
  getBlocked,
  getFriends,
  inviteFriend,
  unblockPlayer,
  type Friends,
  type Person,
} from "../../friendsApi";
import type { Answer } from "../../playersApi";
import type { ServerError } from "../../types";
import { PlayerName } from "./common";

const noSeat = (seat: number) => t("lobby.seat_n", { n: seat + 1 });

function Act({ text, name, onClick }: { text: TextKey; name: string; onClick: () => void }) {
  const action = t(text);
  return (
    <button type="button" class="btn small secondary" aria-label={t("friends.for", { action, name })} onClick={onClick}>
      {action}
    </button>
  );
}

function PersonRow({ person, children }: { person: Person; children?: preact.ComponentChildren }) {
  return (
    <li class="friend-row">
      <PlayerName name={person.name} player={person.player} />
      <span class="friend-actions">{children}</span>
    </li>
  );
}

export function FriendsSection() {
  const [friends, setFriends] = useState<Friends | null>(null);
  const [blocked, setBlocked] = useState<Person[]>([]);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<ServerError | null>(null);
  const [reads, setReads] = useState(0);

  useEffect(() => {
    let current = true;
    void Promise.all([getFriends(), getBlocked()]).then(([got, gotBlocked]) => {
      if (!current) return;
      if (got.ok) setFriends(got.data);
      else setError(got.error);
      if (gotBlocked.ok) setBlocked(gotBlocked.data);
    });
    return () => {
      current = false;
    };
  }, [reads]);

  const then = async (request: Promise<Answer<unknown>>, done: string | null = null) => {
    const answer = await request;
    setError(answer.ok ? null : answer.error);
    setSaid(answer.ok ? done : null);
    setReads((n) => n + 1);
  };

  return (
    <section class="panel light friends" aria-labelledby="friends-title">
      <h2 id="friends-title">{t("friends.title")}</h2>
      {error && (
        <p class="field-error" role="alert">
          {errorText(error, noSeat)}
        </p>
      )}
      <p role="status" class="muted">
        {said ?? ""}
      </p>
      {friends === null ? (
        !error && <p class="loading">{t("app.loading")}</p>
      ) : (
        <>
          {friends.incoming.length > 0 && (
            <>
              <h3>{t("friends.incoming")}</h3>
              <ul class="friend-list">
                {friends.incoming.map((person) => (
                  <PersonRow key={person.player} person={person}>
                    <Act text="friends.accept" name={person.name} onClick={() => void then(acceptFriend(person.player))} />
                    <Act text="friends.decline" name={person.name} onClick={() => void then(endFriend(person.player))} />
                  </PersonRow>
                ))}
              </ul>
            </>
          )}
          {friends.friends.length === 0 ? (
            <p class="muted">{t("friends.none")}</p>
          ) : (
            <ul class="friend-list">
              {friends.friends.map((friend) => (
                <PersonRow key={friend.player} person={friend}>
                  <span class={`chip ${friend.online ? "online" : "offline"}`}>
                    {t(friend.table ? "friends.at_table" : friend.online ? "friends.online" : "friends.offline")}
                  </span>
                  {friend.table && <Act text="friends.join" name={friend.name} onClick={() => void joinOrWatch(friend.table ?? "")} />}
                  {friend.online && (
                    <Act
                      text="friends.invite"
                      name={friend.name}
                      onClick={() => void then(inviteFriend(friend.player), t("friends.invited", { name: friend.name }))}
                    />
                  )}
                  <Act text="friends.remove" name={friend.name} onClick={() => void then(endFriend(friend.player))} />
                </PersonRow>
              ))}
            </ul>
          )}
          {friends.outgoing.length > 0 && (
            <>
              <h3>{t("friends.outgoing")}</h3>
              <ul class="friend-list">
                {friends.outgoing.map((person) => (
                  <PersonRow key={person.player} person={person}>
                    <Act text="friends.cancel" name={person.name} onClick={() => void then(endFriend(person.player))} />
                  </PersonRow>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {blocked.length > 0 && (
        <>
          <h3>{t("friends.blocked")}</h3>
          <ul class="friend-list">
            {blocked.map((person) => (
              <PersonRow key={person.player} person={person}>
                <Act text="friends.unblock" name={person.name} onClick={() => void then(unblockPlayer(person.player))} />
              </PersonRow>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
