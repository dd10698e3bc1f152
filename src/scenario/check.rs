//! Checks a scenario's `expect`, `expect_group` and `expect_summary` blocks
//! against its trace, with the matching rules of spec/scenario-format.md
//! ("Expectations"): `$NAME` bound over the whole trace, `"new"` ids,
//! `members` as multisets, `leader` null ≡ "", numeric `{min, max}` ranges.

use super::model::ScenarioFile;
use super::step_key;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

type Expect = BTreeMap<String, Value>;
/// A step's key, its `expect`, its `expect_group` and the name its join binds.
type StepExpect<'a> = (
    String,
    Option<&'a Expect>,
    Option<&'a Expect>,
    Option<&'a str>,
);

/// Every expectation that failed, as `step KEY: field expected X, got Y`.
pub fn check(file: &ScenarioFile, trace: &[Value]) -> Vec<String> {
    let steps: Vec<StepExpect> = match (&file.requests, &file.actions) {
        (Some(reqs), _) => reqs
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let bind = super::protocol::bind_of(s);
                (
                    step_key(&s.id, i),
                    s.expect.as_ref(),
                    s.expect_group.as_ref(),
                    bind,
                )
            })
            .collect(),
        (None, Some(acts)) => acts
            .iter()
            .enumerate()
            .map(|(i, s)| (step_key(&s.id, i), None, s.expect_group.as_ref(), None))
            .collect(),
        (None, None) => Vec::new(),
    };
    let checker = Checker::new(
        trace,
        steps
            .iter()
            .filter_map(|(k, _, _, b)| Some((k.as_str(), (*b)?))),
    );
    let mut fails = Vec::new();
    for (key, expect, expect_group, _) in &steps {
        if let Some(e) = expect {
            fails.extend(checker.check_response(key, e));
        }
        if let Some(e) = expect_group {
            fails.extend(checker.check_group(key, e));
        }
    }
    if let Some(e) = &file.expect_summary {
        fails.extend(checker.check_summary(e));
    }
    fails
}

struct Checker<'a> {
    trace: &'a [Value],
    responses: BTreeMap<&'a str, Vec<usize>>,
    groups: BTreeMap<&'a str, Vec<usize>>,
    bindings: BTreeMap<String, Value>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Response,
    Group,
    Summary,
}

impl<'a> Checker<'a> {
    fn new<'b>(trace: &'a [Value], binds: impl Iterator<Item = (&'b str, &'b str)>) -> Self {
        let mut responses: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, line) in trace.iter().enumerate() {
            match line.get("type").and_then(Value::as_str) {
                Some("response") => {
                    if let Some(r) = line.get("request").and_then(Value::as_str) {
                        responses.entry(r).or_default().push(i);
                    }
                }
                Some("group") => {
                    if let Some(a) = line.get("after").and_then(Value::as_str) {
                        groups.entry(a).or_default().push(i);
                    }
                }
                _ => {}
            }
        }
        let mut bindings = BTreeMap::new();
        for (key, name) in binds {
            if let Some(&i) = responses.get(key).and_then(|v| v.first()) {
                bindings.insert(
                    name.to_string(),
                    trace[i].get("member_id").cloned().unwrap_or(Value::Null),
                );
            }
        }
        Checker {
            trace,
            responses,
            groups,
            bindings,
        }
    }

    fn resolve(&self, v: &Value) -> Result<Value, String> {
        Ok(match v {
            Value::String(s) if s.len() > 1 && s.starts_with('$') => self
                .bindings
                .get(&s[1..])
                .cloned()
                .ok_or_else(|| s[1..].to_string())?,
            Value::Array(a) => Value::Array(
                a.iter()
                    .map(|x| self.resolve(x))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(o) => {
                let mut m = Map::new();
                for (k, x) in o {
                    m.insert(k.clone(), self.resolve(x)?);
                }
                Value::Object(m)
            }
            other => other.clone(),
        })
    }

    /// Renders an actual value, naming bound ids as `$NAME`.
    fn show(&self, v: Option<&Value>) -> String {
        let Some(v) = v else { return "(absent)".into() };
        match v {
            Value::String(s) => self
                .bindings
                .iter()
                .find(|(_, b)| b.as_str() == Some(s))
                .map_or_else(|| v.to_string(), |(n, _)| format!("${n}")),
            Value::Array(a) => format!(
                "[{}]",
                a.iter()
                    .map(|x| self.show(Some(x)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Value::Object(o) => format!(
                "{{{}}}",
                o.iter()
                    .map(|(k, x)| format!("{k}: {}", self.show(Some(x))))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.to_string(),
        }
    }

    fn seen_before(&self, index: usize) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        for line in &self.trace[..index] {
            if line.get("type").and_then(Value::as_str) != Some("response") {
                continue;
            }
            for k in ["member_id", "leader"] {
                if let Some(s) = line
                    .get(k)
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                {
                    seen.insert(s.to_string());
                }
            }
            for m in line
                .get("members")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let id = m.get("member_id").unwrap_or(m);
                if let Some(s) = id.as_str().filter(|s| !s.is_empty()) {
                    seen.insert(s.to_string());
                }
            }
        }
        seen
    }

    fn compare(
        &self,
        field: &str,
        expected: &Value,
        line: &Value,
        index: usize,
        kind: Kind,
    ) -> Option<String> {
        let got = line.get(field);
        if kind == Kind::Response && field == "member_id" && expected.as_str() == Some("new") {
            return match got.and_then(Value::as_str) {
                Some(s) if !s.is_empty() && !self.seen_before(index).contains(s) => None,
                Some(s) if !s.is_empty() => Some(format!(
                    "member_id expected a new id, got {}, already seen in an earlier response",
                    self.show(got)
                )),
                _ => Some(format!(
                    "member_id expected a new id, got {}",
                    self.show(got)
                )),
            };
        }
        let want = match self.resolve(expected) {
            Ok(w) => w,
            Err(name) => {
                return Some(format!(
                    "{field}: ${name} is not bound (the join that binds it got no response)"
                ))
            }
        };
        let value = got.cloned().unwrap_or(Value::Null);
        let ok = if let (Some(bounds), Some(n)) = (as_bounds(&want), value.as_f64()) {
            bounds.0.is_none_or(|lo| lo <= n) && bounds.1.is_none_or(|hi| n <= hi)
        } else if field == "members" || field == "pending_members" {
            got.is_some() && members_match(&want, &value)
        } else if field == "leader" {
            (is_no_leader(&want) && is_no_leader(&value)) || (got.is_some() && want == value)
        } else if kind == Kind::Summary && want.is_array() {
            multiset(&want) == multiset(&value)
        } else {
            (got.is_some() || want.is_null()) && want == value
        };
        if ok {
            None
        } else {
            Some(format!(
                "{field} expected {expected}, got {}",
                self.show(got)
            ))
        }
    }

    fn check_response(&self, key: &str, expect: &Expect) -> Vec<String> {
        let Some(found) = self.responses.get(key) else {
            return vec![format!("step {key}: expected a response, none printed")];
        };
        let mut out = Vec::new();
        if found.len() > 1 {
            out.push(format!(
                "step {key}: {} responses printed, expected one",
                found.len()
            ));
        }
        let index = found[0];
        for (field, expected) in expect {
            if let Some(msg) =
                self.compare(field, expected, &self.trace[index], index, Kind::Response)
            {
                out.push(format!("step {key}: {msg}"));
            }
        }
        out
    }

    fn check_group(&self, key: &str, expect: &Expect) -> Vec<String> {
        let Some(found) = self.groups.get(key) else {
            return vec![format!(
                "step {key}: expected a group line after it, none printed"
            )];
        };
        let mut out = Vec::new();
        if found.len() > 1 {
            out.push(format!(
                "step {key}: {} group lines after it, expected one",
                found.len()
            ));
        }
        for (field, expected) in expect {
            if let Some(msg) = self.compare(
                field,
                expected,
                &self.trace[found[0]],
                found[0],
                Kind::Group,
            ) {
                out.push(format!("step {key}: group {msg}"));
            }
        }
        out
    }

    fn check_summary(&self, expect: &Expect) -> Vec<String> {
        let Some(line) = self
            .trace
            .iter()
            .rev()
            .find(|l| l.get("type").and_then(Value::as_str) == Some("summary"))
        else {
            return vec!["expect_summary: no summary line printed".into()];
        };
        expect
            .iter()
            .filter_map(|(field, expected)| self.compare(field, expected, line, 0, Kind::Summary))
            .map(|m| format!("summary: {m}"))
            .collect()
    }
}

fn is_no_leader(v: &Value) -> bool {
    v.is_null() || v.as_str() == Some("")
}

/// An expected `{"min": a, "max": b}` range (either bound may be absent).
fn as_bounds(v: &Value) -> Option<(Option<f64>, Option<f64>)> {
    let o = v.as_object()?;
    if o.is_empty()
        || !o.keys().all(|k| k == "min" || k == "max")
        || !o.values().all(Value::is_number)
    {
        return None;
    }
    Some((
        o.get("min").and_then(Value::as_f64),
        o.get("max").and_then(Value::as_f64),
    ))
}

fn multiset(v: &Value) -> Option<Vec<String>> {
    let mut items: Vec<String> = v.as_array()?.iter().map(|x| x.to_string()).collect();
    crate::ordered::sort(&mut items);
    Some(items)
}

/// Multiset match: a string entry matches an entry with that member id; an
/// object entry matches on every key it gives (a missing key counts as null).
fn members_match(expected: &Value, got: &Value) -> bool {
    let (Some(exp), Some(act)) = (expected.as_array(), got.as_array()) else {
        return false;
    };
    if exp.len() != act.len() {
        return false;
    }
    let as_obj = |v: &Value| -> Map<String, Value> {
        match v {
            Value::Object(o) => o.clone(),
            other => Map::from_iter([("member_id".to_string(), other.clone())]),
        }
    };
    let exp: Vec<Map<String, Value>> = exp.iter().map(as_obj).collect();
    let act: Vec<Map<String, Value>> = act.iter().map(as_obj).collect();
    let fits = |e: &Map<String, Value>, a: &Map<String, Value>| {
        e.iter().all(|(k, v)| a.get(k).unwrap_or(&Value::Null) == v)
    };
    // Bipartite matching by augmenting paths.
    let mut owner: Vec<Option<usize>> = vec![None; act.len()];
    fn place(
        i: usize,
        tried: &mut [bool],
        owner: &mut [Option<usize>],
        fits: &dyn Fn(usize, usize) -> bool,
    ) -> bool {
        for j in 0..owner.len() {
            if tried[j] || !fits(i, j) {
                continue;
            }
            tried[j] = true;
            if owner[j].is_none_or(|o| place(o, tried, owner, fits)) {
                owner[j] = Some(i);
                return true;
            }
        }
        false
    }
    let fit = |i: usize, j: usize| fits(&exp[i], &act[j]);
    (0..exp.len()).all(|i| place(i, &mut vec![false; act.len()], &mut owner, &fit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_compare_as_multisets_of_ids_or_partial_objects() {
        let got = json!([{"member_id": "a", "group_instance_id": "x"}, {"member_id": "b", "group_instance_id": null}]);
        assert!(members_match(&json!(["b", "a"]), &got));
        assert!(members_match(
            &json!([{"member_id": "b", "group_instance_id": null}, {"group_instance_id": "x"}]),
            &got
        ));
        assert!(!members_match(
            &json!([{"member_id": "a", "group_instance_id": "y"}, "b"]),
            &got
        ));
        assert!(!members_match(&json!(["a"]), &got));
    }

    #[test]
    fn ranges_match_numbers_inside_inclusive_bounds() {
        assert_eq!(
            as_bounds(&json!({"min": 1, "max": 3})),
            Some((Some(1.0), Some(3.0)))
        );
        assert_eq!(as_bounds(&json!({"max": 0})), Some((None, Some(0.0))));
        assert_eq!(as_bounds(&json!({"min": 1, "other": 2})), None);
    }

    fn scenario(v: Value) -> ScenarioFile {
        crate::scenario::parse(&v.to_string()).expect("a valid scenario")
    }

    #[test]
    fn a_step_answered_twice_or_without_its_group_line_is_reported() {
        let file = scenario(json!({"requests": [{"at_ms": 0, "id": "hb",
            "heartbeat": {"member_id": "x", "generation_id": 1},
            "expect": {"error": "NONE"}, "expect_group": {"state": "Dead"}}]}));
        let response = json!({"type": "response", "request": "hb", "error": "NONE"});
        assert_eq!(
            check(&file, &[response.clone(), response]),
            vec![
                "step hb: 2 responses printed, expected one",
                "step hb: expected a group line after it, none printed"
            ]
        );
    }

    #[test]
    fn an_id_listed_in_an_earlier_response_is_not_new_but_one_seen_only_later_is() {
        let file = scenario(json!({"requests": [
            {"at_ms": 0, "id": "a", "heartbeat": {"member_id": "x", "generation_id": 1},
             "expect": {"member_id": "new"}},
            {"at_ms": 0, "id": "b", "heartbeat": {"member_id": "x", "generation_id": 1},
             "expect": {"member_id": "new"}}]}));
        let a = json!({"type": "response", "request": "a", "member_id": "m1",
                       "members": [{"member_id": "m2"}]});
        let b = json!({"type": "response", "request": "b", "member_id": "m2"});
        assert_eq!(
            check(&file, &[a.clone(), b.clone()]),
            vec!["step b: member_id expected a new id, got \"m2\", already seen in an earlier response"]
        );
        assert!(
            check(&file, &[b, a]).is_empty(),
            "m2 is new where b comes first"
        );
    }

    #[test]
    fn no_leader_is_null_or_empty_but_never_a_member_id() {
        let file = |leader: Value| {
            scenario(json!({"requests": [{"at_ms": 0, "id": "j",
                "heartbeat": {"member_id": "x", "generation_id": 1},
                "expect": {"leader": leader}}]}))
        };
        let line = |leader: Value| json!({"type": "response", "request": "j", "leader": leader});
        assert!(check(&file(json!(null)), &[line(json!(""))]).is_empty());
        assert!(check(&file(json!("")), &[line(json!(null))]).is_empty());
        assert_eq!(
            check(&file(json!(null)), &[line(json!("m1"))]),
            vec!["step j: leader expected null, got \"m1\""]
        );
        assert_eq!(
            check(&file(json!("m1")), &[line(json!(""))]),
            vec!["step j: leader expected \"m1\", got \"\""]
        );
    }
}
