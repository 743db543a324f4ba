package toon

// DropEmpty returns v without the object members whose value is an empty
// string, an empty list or an empty object, recursively: a member whose
// object or list is empty once its own empty members are gone is dropped
// too. Array elements are never dropped (their positions are data), but
// objects inside arrays lose their empty members like any other. It does
// not change v.
//
// It looks into [Object], map[string]any and []any (nil ones count as
// empty) and returns every other value as it is; the root is returned even
// when it is empty. A value nested deeper than [MaxDepth] is returned as it
// is (and [Marshal] refuses it).
//
// Dropping a member can make the objects of an array differ in their keys,
// and so turn a table into a list.
func DropEmpty(v any) any {
	return dropEmpty(v, 0)
}

func dropEmpty(v any, depth int) any {
	if depth >= MaxDepth {
		return v
	}
	switch v := v.(type) {
	case Object:
		out := make(Object, 0, len(v))
		for _, m := range v {
			if x := dropEmpty(m.Value, depth+1); !isEmpty(x) {
				out = append(out, Member{Key: m.Key, Value: x})
			}
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if x := dropEmpty(x, depth+1); !isEmpty(x) {
				out[k] = x
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = dropEmpty(x, depth+1)
		}
		return out
	}
	return v
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case Object:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}
