//! The server's modules depend on each other one way, from the crate root
//! down: no module uses a name the crate root (`lib.rs`) defines (0 arrows
//! back up: the root only wires the modules together and re-exports their
//! names for the crate's users), and no import cycle among its top-level
//! modules (a module that uses another, directly or through others, is
//! never used back by it).
//!
//! Terms:
//! - **root**: `src/lib.rs`, the node `crate`; it uses every module it
//!   declares.
//! - **use**: a path in code (comments aside) that starts at the root:
//!   `crate::NAME…`, `crate::{NAME…, …}`, or as many `super::` as the
//!   file is deep (`super::NAME` in `src/x.rs` or `src/x/mod.rs`, outside
//!   its tests' module). `NAME`
//!   is a module the root declares (an arrow to it) or else a name the
//!   root defines or re-exports (an arrow back up).

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The root's node in the graph.
const ROOT: &str = "crate";

/// The first names of the paths from the root in `code` (one file, its
/// comments already cut), for a file `depth` modules below the root.
fn root_names(code: &str, depth: usize) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        // `crate::` inside a longer name (`foo_crate::`) is not the root.
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a::b, c}`: the first name of each path at the top of
            // the group.
            let mut level = 0usize;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => level += 1,
                    '}' if level == 0 => {
                        names.push(ident(&group[start..i]));
                        break;
                    }
                    '}' => level -= 1,
                    ',' if level == 0 => {
                        names.push(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident(rest));
        }
    }
    if depth > 0 {
        // Not in a file's tests: `super::` there is the file's module.
        let up = "super::".repeat(depth);
        let mut rest = code.split("#[cfg(test)]").next().unwrap_or_default();
        while let Some(at) = rest.find(&up) {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + up.len()..];
            let deeper = rest.starts_with("super::");
            while let Some(further) = rest.strip_prefix("super::") {
                rest = further;
            }
            if deeper || before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            names.push(ident(rest));
        }
    }
    names.retain(|n| !n.is_empty() && n != "self");
    names
}

/// `text` without its comments (from `//` to the end of each line).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules the root declares (`mod NAME;`, `pub mod NAME;`).
fn root_modules(lib: &str) -> BTreeSet<String> {
    code_of(lib)
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("pub ").unwrap_or(line);
            let name = line.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect()
}

/// The layout of `src`: every top-level module (and the root) with the
/// top-level modules it uses, and each use of a name of the root from a
/// module (`file: crate::NAME`).
struct Layout {
    graph: BTreeMap<String, BTreeSet<String>>,
    back_up: Vec<String>,
}

fn layout() -> Layout {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let modules = root_modules(&lib);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    graph.insert(ROOT.to_string(), modules.clone());
    let mut back_up = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") || path == src.join("lib.rs")
            {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_str().unwrap().to_string())
                .collect();
            let module = parts[0].trim_end_matches(".rs").to_string();
            // `x.rs` and `x/mod.rs` are one below the root; `x/y.rs` two.
            let depth = parts.len() - usize::from(parts.last().unwrap() == "mod.rs");
            let code = code_of(&std::fs::read_to_string(&path).unwrap());
            let used = graph.entry(module.clone()).or_default();
            for name in root_names(&code, depth) {
                if modules.contains(&name) {
                    if name != module {
                        used.insert(name);
                    }
                } else {
                    back_up.push(format!("{}: crate::{name}", relative.display()));
                    used.insert(ROOT.to_string());
                }
            }
        }
    }
    back_up.sort();
    back_up.dedup();
    Layout { graph, back_up }
}

/// A cycle through `from`, if any, as the modules in order.
fn cycle_from(
    graph: &BTreeMap<String, BTreeSet<String>>,
    from: &str,
    path: &mut Vec<String>,
) -> Option<Vec<String>> {
    for next in graph.get(from).into_iter().flatten() {
        if let Some(at) = path.iter().position(|m| m == next) {
            let mut cycle = path[at..].to_vec();
            cycle.push(next.clone());
            return Some(cycle);
        }
        path.push(next.clone());
        if let Some(cycle) = cycle_from(graph, next, path) {
            return Some(cycle);
        }
        path.pop();
    }
    None
}

#[test]
fn the_paths_from_the_root_are_read_in_every_form() {
    let code = "use crate::state::AppState;\nuse crate::{config::Config, http::{error, svg}, Bound};\n\
                let x = my_crate::Thing; crate::svg_response(p);\nuse super::Hub; use super::super::Top;";
    assert_eq!(
        root_names(code, 1),
        ["state", "config", "http", "Bound", "svg_response", "Hub"]
    );
    assert_eq!(
        root_names(code, 2),
        ["state", "config", "http", "Bound", "svg_response", "Top"]
    );
    assert_eq!(
        root_modules("pub mod a;\nmod b;\n// mod c;\npub use a::X;\n"),
        BTreeSet::from(["a".to_string(), "b".to_string()])
    );
}

#[test]
fn no_module_of_the_server_uses_a_name_of_the_crate_root() {
    let layout = layout();
    assert!(
        layout.graph[ROOT].contains("state") && layout.graph.contains_key("state"),
        "the root's modules were read: {:?}",
        layout.graph[ROOT]
    );
    assert!(
        layout.back_up.is_empty(),
        "modules use names of lib.rs (use the module that defines them): {:#?}",
        layout.back_up
    );
}

#[test]
fn no_module_of_the_server_uses_one_that_uses_it_back() {
    let graph = layout().graph;
    assert!(graph.len() > 5, "the modules were found: {graph:?}");
    assert!(
        graph["matches"].contains("store") && graph["matches"].contains("state"),
        "imports were read: {graph:?}"
    );
    for module in graph.keys() {
        let mut path = vec![module.clone()];
        if let Some(cycle) = cycle_from(&graph, module, &mut path) {
            panic!("an import cycle: {}", cycle.join(" → "));
        }
    }
}
