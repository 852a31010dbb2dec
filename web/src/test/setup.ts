// Before every test file: the browser globals the app reads when its modules load, so the
// interface speaks English whatever the machine's language.

import { vi } from "vitest";

vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
