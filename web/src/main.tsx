import { render } from "preact";
import { currentLang } from "./i18n";
import { startNetwork } from "./net";
import { loadPresets } from "./presets";
import { startProfile } from "./profile";
import { unlockAudioOnGesture } from "./sound";
import { App } from "./ui/App";
import "./styles/index.css";

document.documentElement.lang = currentLang();
unlockAudioOnGesture();
startNetwork();
void loadPresets();
void startProfile();
render(<App />, document.getElementById("app") as HTMLElement);
