//! The server's modules depend on each other one way: no import cycle among
//! its top-level modules (a module that uses another, directly or through
//! others, is never used back by it).

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every top-level module of `src` and the top-level modules it names as
/// `crate::NAME` outside comments.
fn uses() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap();
            let module = first
                .as_os_str()
                .to_str()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let used = graph.entry(module.clone()).or_default();
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or_default();
                let mut rest = code;
                while let Some(at) = rest.find("crate::") {
                    rest = &rest[at + "crate::".len()..];
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != module {
                        used.insert(name);
                    }
                }
            }
        }
    }
    graph
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
fn no_module_of_the_server_uses_one_that_uses_it_back() {
    let graph = uses();
    assert!(graph.len() > 5, "the modules were found: {graph:?}");
    assert!(
        graph["matches"].contains("store"),
        "imports were read: {graph:?}"
    );
    for module in graph.keys() {
        let mut path = vec![module.clone()];
        if let Some(cycle) = cycle_from(&graph, module, &mut path) {
            panic!("an import cycle: {}", cycle.join(" → "));
        }
    }
}
