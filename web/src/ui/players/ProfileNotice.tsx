// What the page says while this browser's profile cannot be made (the server busy or out of reach):
// that the player plays as a guest until it is, and when it is tried again; then that it is made.
// A status region (read out as it changes), not only a toast; the player may play on as a guest.

import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n";
import {
  dismissProfileMaking,
  onProfileMaking,
  playAsGuest,
  profileMaking,
  tryProfileNow,
  type ProfileMaking,
} from "../../profile";

function useProfileMaking(): ProfileMaking {
  const [making, setMaking] = useState(profileMaking());
  useEffect(() => {
    // A change between the first drawing and this subscription counts too.
    setMaking(profileMaking());
    return onProfileMaking(() => setMaking(profileMaking()));
  }, []);
  return making;
}

function NoticeText({ making }: { making: ProfileMaking }) {
  if (making.kind === "made") {
    return (
      <>
        <p>{t("profile.making.made")}</p>
        <button type="button" class="btn small secondary" onClick={dismissProfileMaking}>
          {t("profile.making.ok")}
        </button>
      </>
    );
  }
  if (making.kind === "none" || making.guest) return null;
  return (
    <>
      <p>
        {making.kind === "again"
          ? t("profile.making.again")
          : t(making.reason === "busy" ? "profile.making.busy" : "profile.making.offline", { n: making.seconds })}
      </p>
      <button type="button" class="btn small" disabled={making.kind === "again"} onClick={tryProfileNow}>
        {t("profile.making.try_now")}
      </button>
      <button type="button" class="btn small secondary" onClick={playAsGuest}>
        {t("profile.making.guest")}
      </button>
    </>
  );
}

/** The notice; the status region is always there (empty when there is nothing to say), so that
 * what comes into it is read out. */
export function ProfileNotice() {
  const making = useProfileMaking();
  const shown = making.kind === "made" || ((making.kind === "waiting" || making.kind === "again") && !making.guest);
  return (
    <div class={shown ? "profile-notice shown" : "profile-notice"} role="status" aria-live="polite">
      <NoticeText making={making} />
    </div>
  );
}
