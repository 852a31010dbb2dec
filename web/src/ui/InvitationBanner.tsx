// A friend's invitation to their table, shown on any open page: one click joins (a free seat, or
// watching once the match is under way).

import { t } from "../i18n";
import { acceptInvitation, dismissInvitation } from "../friends";
import { useApp } from "../store";

export function InvitationBanner() {
  const invitation = useApp().invitation;
  if (!invitation) return null;
  return (
    <div class="profile-notice shown invitation" role="status" aria-live="polite">
      <p>{t("invite.from", { name: invitation.name })}</p>
      <button type="button" class="btn small" onClick={() => void acceptInvitation()}>
        {t("invite.join")}
      </button>
      <button type="button" class="btn small secondary" onClick={dismissInvitation}>
        {t("invite.dismiss")}
      </button>
    </div>
  );
}
