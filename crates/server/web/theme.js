// Light or dark: the page's colours before it is drawn, and the header's
// switch between them. A classic script (not a module), loaded in each
// page's <head>, so that a dark page never flashes light first.
//
// Terms:
// - scheme: "light" or "dark", on <html data-theme>; style.css colours the
//   page from it, and /static/pictures.css (the renderer's dark palette)
//   the pictures.
// - choice: "system", "light" or "dark", picked with the header's switch
//   and kept in this browser ("parlor.theme"; none is "system"): with
//   "system" the system's preference (prefers-color-scheme) decides, and
//   follows it as it changes. Each press moves to the next choice — first
//   the scheme the page is not showing, then the other, then the system's
//   again — and the switch says which is in force.
(() => {
  const KEY = "parlor.theme";
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const stored = () => {
    try {
      const value = localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : "system";
    } catch {
      return "system";
    }
  };
  // The choice made on this page when the browser keeps nothing.
  let here = null;
  const choice = () => here || stored();
  const systemScheme = () => (system.matches ? "dark" : "light");
  const scheme = () => (choice() === "system" ? systemScheme() : choice());
  const WORDS = { system: "Colours: system", light: "Colours: light", dark: "Colours: dark" };
  const apply = () => {
    document.documentElement.dataset.theme = scheme();
    for (const toggle of document.querySelectorAll("button.theme-toggle")) {
      toggle.textContent = WORDS[choice()];
      toggle.dataset.choice = choice();
      toggle.title = "Press for the next: system, light or dark";
    }
  };
  apply();
  system.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", () => {
    const header = document.querySelector("header.top");
    if (!header) return;
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "theme-toggle";
    toggle.addEventListener("click", () => {
      const other = (s) => (s === "dark" ? "light" : "dark");
      const now = choice();
      here = now === "system" ? other(systemScheme()) : now === other(systemScheme()) ? other(now) : "system";
      try {
        if (here === "system") localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, here);
      } catch {
        // No storage: the switch still works on this page.
      }
      apply();
    });
    header.append(toggle);
    apply();
  });
})();
