import { render } from "preact";
import { currentLang, startLang } from "./i18n";
import { startNetwork } from "./net";
import { loadPresets } from "./presets";
import { startProfile } from "./profile";
import { unlockAudioOnGesture } from "./sound";
import { getApp, update } from "./store";
import { App } from "./ui/App";
import { preloadScreenOf } from "./ui/screens";
import "./styles/index.css";

unlockAudioOnGesture();
startNetwork();
void loadPresets();
void startProfile();
// The first page is drawn in its language: its catalog (English's too) is a chunk to fetch first,
// together with the chunk of the first screen.
preloadScreenOf(getApp().route);
void startLang().then(() => {
  update({ lang: currentLang() });
  render(<App />, document.getElementById("app") as HTMLElement);
});
