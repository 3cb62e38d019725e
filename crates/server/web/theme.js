// Light or dark: the page's colours before it is drawn, and the header's
// switch between them. A classic script (not a module), loaded in each
// page's <head>, so that a dark page never flashes light first.
//
// Terms:
// - scheme: "light" or "dark", on <html data-theme>; style.css colours the
//   page from it, and /static/pictures.css (the renderer's dark palette)
//   the pictures.
// - choice: the scheme the person picked with the switch, kept in this
//   browser ("parlor.theme"); with none, the system's preference
//   (prefers-color-scheme) decides, and follows it as it changes.
(() => {
  const KEY = "parlor.theme";
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const chosen = () => {
    try {
      const value = localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : null;
    } catch {
      return null;
    }
  };
  // The choice made on this page when the browser keeps nothing.
  let here = null;
  const scheme = () => here || chosen() || (system.matches ? "dark" : "light");
  const apply = () => {
    const now = scheme();
    document.documentElement.dataset.theme = now;
    for (const toggle of document.querySelectorAll("button.theme-toggle")) {
      toggle.setAttribute("aria-pressed", String(now === "dark"));
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
    toggle.textContent = "Dark mode";
    toggle.addEventListener("click", () => {
      here = scheme() === "dark" ? "light" : "dark";
      try {
        localStorage.setItem(KEY, here);
      } catch {
        // No storage: the switch still works on this page.
      }
      apply();
    });
    header.append(toggle);
    apply();
  });
})();
