// JSON Pointers and JSONPaths.
#include "json/json_pointer.h"

#include <algorithm>

namespace tcb {

namespace {

using nlohmann::json;

std::string TypeName(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "not an object or array";
  }
}

}  // namespace

std::optional<size_t> JsonPointerIndex(std::string_view token) {
  // Fifteen digits at most: far beyond any array, and no overflow.
  if (token.empty() || token.size() > 15 || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  size_t index = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + static_cast<size_t>(c - '0');
  }
  return index;
}

std::optional<std::vector<std::string>> ParseJsonPointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer[0] != '/') return std::nullopt;
  std::string token;
  for (size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(std::move(token));
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return std::nullopt;
      token += pointer[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      token += pointer[i];
    }
  }
  return tokens;
}

std::string JsonPathChild(const std::string& parent, std::string_view key) {
  auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  bool identifier = !key.empty() && letter(key[0]) &&
                    std::all_of(key.begin(), key.end(), [&](char c) { return letter(c) || digit(c); });
  if (identifier) return parent + "." + std::string(key);
  std::string out = parent + "['";
  for (char c : key) {
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      // Keeps the path on one line, as the CLI prints one error per line.
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xF];
      out += kHex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out + "']";
}

std::string JsonPathIndex(const std::string& parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::optional<std::string> SetAtPointer(json& document, std::string_view pointer, json value) {
  const std::optional<std::vector<std::string>> tokens = ParseJsonPointer(pointer);
  if (!tokens || tokens->empty()) return "not a JSON Pointer to a member";
  json* node = &document;
  std::string at;  // The pointer to `node`, for messages.
  for (size_t i = 0; i < tokens->size(); ++i) {
    const std::string& token = (*tokens)[i];
    const bool last = i + 1 == tokens->size();
    const std::string where = at.empty() ? "the scenario" : at;
    if (node->is_object()) {
      auto it = node->find(token);
      if (last) {
        (*node)[token] = std::move(value);
        return std::nullopt;
      }
      if (it == node->end()) return where + " has no \"" + token + "\"";
      node = &*it;
    } else if (node->is_array()) {
      const std::optional<size_t> index = JsonPointerIndex(token);
      if (!index) return where + " is an array; \"" + token + "\" is not an index";
      if (*index >= node->size()) {
        return where + " has " + std::to_string(node->size()) + " element" + (node->size() == 1 ? "" : "s") +
               "; index " + token + " is out of range";
      }
      if (last) {
        (*node)[*index] = std::move(value);
        return std::nullopt;
      }
      node = &(*node)[*index];
    } else {
      return where + " is " + TypeName(*node) + ", not an object or array";
    }
    at += (json::json_pointer() / token).to_string();  // Escapes ~ and /.
  }
  return std::nullopt;
}

const json* FindInSummary(const json& summary, std::string_view pointer) {
  const std::optional<std::vector<std::string>> tokens = ParseJsonPointer(pointer);
  if (!tokens) return nullptr;
  const json* node = &summary;
  for (const std::string& token : *tokens) {
    if (node->is_object()) {
      auto it = node->find(token);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      if (const std::optional<size_t> index = JsonPointerIndex(token)) {
        if (*index >= node->size()) return nullptr;
        node = &(*node)[*index];
        continue;
      }
      const json* found = nullptr;
      for (const json& element : *node) {
        if (!element.is_object()) continue;
        auto name = element.find("name");
        if (name != element.end() && name->is_string() && name->get_ref<const std::string&>() == token) {
          found = &element;
          break;
        }
      }
      if (found == nullptr) return nullptr;
      node = found;
    } else {
      return nullptr;
    }
  }
  return node;
}

std::string PointerToJsonPath(const json& document, std::string_view pointer) {
  std::string path = "$";
  const std::optional<std::vector<std::string>> tokens = ParseJsonPointer(pointer);
  if (!tokens) return path;
  const json* node = &document;
  for (const std::string& token : *tokens) {
    const std::optional<size_t> index = JsonPointerIndex(token);
    if (node != nullptr && node->is_array() && index) {
      path = JsonPathIndex(path, *index);
      node = *index < node->size() ? &(*node)[*index] : nullptr;
      continue;
    }
    path = JsonPathChild(path, token);
    if (node != nullptr && node->is_object()) {
      auto it = node->find(token);
      node = it == node->end() ? nullptr : &*it;
    } else {
      node = nullptr;
    }
  }
  return path;
}

bool JsonPathWithin(std::string_view inner, std::string_view outer) {
  if (inner.substr(0, outer.size()) != outer) return false;
  return inner.size() == outer.size() || inner[outer.size()] == '.' || inner[outer.size()] == '[';
}

}  // namespace tcb
