// Reads Bicep through tree-sitter-bicep and answers the questions the infra tests ask:
// which declarations exist, what their decorators and literal values are, where a property sits.
// No Bicep compiler can be installed on this machine, so this is the offline stand-in for
// `az bicep build`: it proves syntax and structure, not ARM schema validity.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Parser from 'tree-sitter';
import Bicep from 'tree-sitter-bicep';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const infraDir = path.join(repoRoot, 'infra');

const parser = new Parser();
parser.setLanguage(Bicep);

/** Parses Bicep source text. tree-sitter never throws: problems appear as ERROR/MISSING nodes. */
export function parseBicep(text) {
  return parser.parse(text);
}

/** Every ERROR or MISSING node with its 1-based line and column; empty means the text parsed. */
export function syntaxProblems(tree) {
  const problems = [];
  const visit = (node) => {
    if (node.type === 'ERROR' || node.isMissing) {
      problems.push({
        kind: node.isMissing ? `MISSING ${node.type}` : 'ERROR',
        line: node.startPosition.row + 1,
        column: node.startPosition.column + 1,
        text: node.text.slice(0, 80),
      });
    }
    for (const child of node.children) visit(child);
  };
  visit(tree.rootNode);
  return problems;
}

/** Every .bicep file under infra/, sorted, each parsed once. */
export function loadInfraBicepFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.bicep')) files.push(full);
    }
  };
  walk(infraDir);
  return files.sort().map(loadBicepFile);
}

/** Parses one file and indexes its declarations. */
export function loadBicepFile(fullPath) {
  const text = fs.readFileSync(fullPath, 'utf8');
  return fromText(text, path.relative(repoRoot, fullPath), fullPath);
}

/** Parses source text (a file or a test snippet) and indexes its declarations. */
export function fromText(text, rel = '<snippet>', fullPath = undefined) {
  const tree = parseBicep(text);
  return { rel, fullPath, text, tree, root: tree.rootNode, ...declarations(tree.rootNode) };
}

/** Top-level params, vars, resources, modules and outputs, with the decorators above each. */
export function declarations(root) {
  const params = [];
  const vars = [];
  const resources = [];
  const modules = [];
  const outputs = [];
  let pending = [];
  for (const node of root.namedChildren) {
    if (node.type === 'decorators') {
      pending = node.namedChildren.map(decoratorOf);
      continue;
    }
    if (node.type === 'comment') continue;
    const decorators = pending;
    pending = [];
    const named = node.namedChildren;
    switch (node.type) {
      case 'parameter_declaration':
        params.push({
          name: named[0].text,
          type: named[1]?.type === 'type' ? named[1].text : undefined,
          defaultNode: named[1]?.type === 'type' ? named[2] : named[1],
          decorators,
          node,
        });
        break;
      case 'variable_declaration':
        vars.push({ name: named[0].text, valueNode: named[named.length - 1], decorators, node });
        break;
      case 'resource_declaration':
        resources.push({
          symbol: named[0].text,
          type: stringText(named[1]),
          existing: /^\s*existing\b/.test(node.text.slice(named[1].endIndex - node.startIndex)),
          ...bodyOf(named[named.length - 1]),
          decorators,
          node,
        });
        break;
      case 'module_declaration':
        modules.push({
          symbol: named[0].text,
          path: stringText(named[1]),
          ...bodyOf(named[named.length - 1]),
          decorators,
          node,
        });
        break;
      case 'output_declaration':
        outputs.push({ name: named[0].text, valueNode: named[named.length - 1], decorators, node });
        break;
      default:
        break;
    }
  }
  return { params, vars, resources, modules, outputs };
}

function decoratorOf(decorator) {
  const call = decorator.namedChildren[0];
  if (call?.type !== 'call_expression') return { name: call?.text ?? '', args: [] };
  const fn = call.childForFieldName('function');
  const name = fn.type === 'member_expression' ? fn.childForFieldName('property').text : fn.text;
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  return { name, args };
}

// A resource or module body is an object, `if (cond) {…}` or `[for … : {…}]` (maybe with an if inside).
function bodyOf(node) {
  let condition = null;
  let loop = null;
  let current = node;
  if (current.type === 'for_statement') {
    loop = current;
    current = current.childForFieldName('body') ?? current.namedChildren[current.namedChildren.length - 1];
  }
  if (current.type === 'if_statement') {
    condition = current.namedChildren[0];
    current = current.namedChildren[current.namedChildren.length - 1];
  }
  return { body: current.type === 'object' ? current : null, condition, loop };
}

/** The text of a string literal without quotes; interpolations kept as ${…}. */
export function stringText(node) {
  if (!node || node.type !== 'string') return undefined;
  let out = '';
  for (const part of node.namedChildren) {
    if (part.type === 'escape_sequence') out += unescape(part.text);
    else out += part.text;
  }
  return out;
}

function unescape(sequence) {
  const map = { "\\'": "'", '\\\\': '\\', '\\n': '\n', '\\r': '\r', '\\t': '\t', '\\$': '$' };
  return map[sequence] ?? sequence;
}

/** True when a string literal contains ${…}. */
export function isInterpolated(node) {
  return node?.type === 'string' && node.namedChildren.some((c) => c.type === 'interpolation');
}

/** The key of an object property as written (identifier or quoted string). */
export function propertyKey(prop) {
  const key = prop.namedChildren[0];
  return key.type === 'string' ? stringText(key) : key.text;
}

/** An object node's properties as a Map of key -> value node. */
export function objectProps(objectNode) {
  const map = new Map();
  if (!objectNode || objectNode.type !== 'object') return map;
  for (const prop of objectNode.namedChildren) {
    if (prop.type !== 'object_property') continue;
    map.set(propertyKey(prop), prop.namedChildren[prop.namedChildren.length - 1]);
  }
  return map;
}

/** Follows a dotted path of property keys through nested object literals. */
export function getPath(objectNode, dotted) {
  let current = objectNode;
  for (const key of dotted.split('.')) {
    current = objectProps(current).get(key);
    if (!current) return undefined;
  }
  return current;
}

/**
 * The JavaScript value of a literal node: strings without interpolation, numbers, booleans,
 * null, and arrays/objects made only of those. Anything computed gives undefined.
 */
export function literal(node) {
  if (!node) return undefined;
  switch (node.type) {
    case 'string':
      return isInterpolated(node) ? undefined : stringText(node);
    case 'number':
      return Number(node.text);
    case 'boolean':
      return node.text === 'true';
    case 'null':
      return null;
    case 'unary_expression': {
      const inner = literal(node.namedChildren[0]);
      return typeof inner === 'number' && node.text.trim().startsWith('-') ? -inner : undefined;
    }
    case 'array': {
      const items = node.namedChildren.filter((c) => c.type !== 'comment').map(literal);
      return items.some((v) => v === undefined) ? undefined : items;
    }
    case 'object': {
      const result = {};
      for (const [key, value] of objectProps(node)) {
        const v = literal(value);
        if (v === undefined) return undefined;
        result[key] = v;
      }
      return result;
    }
    default:
      return undefined;
  }
}

/** All descendants (including the node) for which predicate is true. */
export function findAll(node, predicate) {
  const found = [];
  const visit = (n) => {
    if (predicate(n)) found.push(n);
    for (const child of n.namedChildren) visit(child);
  };
  visit(node);
  return found;
}

/** The name a call expression calls: `guid`, `listKeys`, or `x.listKeys` -> `listKeys`. */
export function calleeName(call) {
  const fn = call.childForFieldName('function');
  if (!fn) return '';
  return fn.type === 'member_expression' ? fn.childForFieldName('property')?.text ?? '' : fn.text;
}

/** The decorator called `name` on a declaration, or undefined. */
export function decorator(decl, name) {
  return decl.decorators.find((d) => d.name === name);
}

/** 1-based line of a node, for messages that point at the file. */
export function lineOf(node) {
  return node.startPosition.row + 1;
}
