/**
 * Client frames and what org.json 20231013 (the JSON library of the real MASSim server) made of them, read
 * the way the server reads an agent frame: `new JSONObject(text)`, then `optString("type")`,
 * `optJSONObject("content")`, and for actions `optLong("id", -1)`, `optJSONArray("p")` with every
 * element through `optString`. Obtained by running the library on each text, not by reasoning about it.
 */

/** One text and the library's reading of it. */
export interface OrgJsonCase {
  text: string;
  reading: 'action' | 'action-without-p' | 'auth-request' | 'no-content' | 'other' | 'invalid-json';
  id?: number;
  type?: string;
  p?: string[];
  user?: string;
  pw?: string;
  /** `optString("type")` of the frame. */
  messageType?: string;
  /** The library's message, without its position suffix. */
  error?: string;
}

export const orgJsonCases: OrgJsonCase[] = [
  {
    text: '{"type":"action","content":{"id":3,"type":"move","p":["n"]}}',
    reading: 'action',
    id: 3,
    type: 'move',
    p: ['n'],
  },
  {
    text: "{'type':'action','content':{'id':3,'type':'move','p':['n']}}",
    reading: 'action',
    id: 3,
    type: 'move',
    p: ['n'],
  },
  {
    text: '{type:action,content:{id:3,type:move,p:[n,e]}}',
    reading: 'action',
    id: 3,
    type: 'move',
    p: ['n', 'e'],
  },
  {
    text: '{"type":"action","content":{"id":"6","type":"clear","p":[0,1]}}',
    reading: 'action',
    id: 6,
    type: 'clear',
    p: ['0', '1'],
  },
  { text: '{"type":"action","content":{"id":7,"type":"skip"}}', reading: 'action-without-p', id: 7 },
  { text: '{"type":"action","content":{"id":7,"type":"skip","p":"n"}}', reading: 'action-without-p', id: 7 },
  { text: '{"type":"action","content":{"id":7,"type":"skip","p":null}}', reading: 'action-without-p', id: 7 },
  {
    text: '{"type":"action","content":{"id":7.9,"p":[]}}',
    reading: 'action',
    id: 7,
    type: 'unknown_action',
    p: [],
  },
  {
    text: '{"type":"action","content":{"id":"7.9","type":null,"p":[]}}',
    reading: 'action',
    id: 7,
    type: 'unknown_action',
    p: [],
  },
  {
    text: '{"type":"action","content":{"id":" 7","type":"x","p":[]}}',
    reading: 'action',
    id: -1,
    type: 'x',
    p: [],
  },
  {
    text: '{"type":"action","content":{"id":true,"type":"x","p":[]}}',
    reading: 'action',
    id: -1,
    type: 'x',
    p: [],
  },
  {
    text: '{"type":"action","content":{"id":-0,"type":"x","p":[]}}',
    reading: 'action',
    id: 0,
    type: 'x',
    p: [],
  },
  {
    text: '{"type":"action","content":{"id":1,"type":"x","p":[0.50, 007, -0, -0.0, 1e5, 1E-7, 0.0000001, 12345678901234567890, 1.5e3, .5, -.5, 1., null, true, TRUE, Null, "a", {"b":1}, [1,"x"], 0e5, 00.5, -00]}}',
    reading: 'action',
    id: 1,
    type: 'x',
    p: [
      '0.50',
      '7',
      '-0.0',
      '-0.0',
      '1E+5',
      '1E-7',
      '1E-7',
      '12345678901234567890',
      '1.5E+3',
      '0.5',
      '-0.5',
      '1',
      '',
      'true',
      'true',
      '',
      'a',
      '{"b":1}',
      '[1,"x"]',
      '0E+5',
      '0.5',
      '0',
    ],
  },
  {
    text: '{"type":"action","content":{"id":1,"type":"x","p":[1,,2,]}}',
    reading: 'action',
    id: 1,
    type: 'x',
    p: ['1', '', '2'],
  },
  {
    text: '{"type":"action","content":{"id":1,"type":"x","p":[,]}}',
    reading: 'action',
    id: 1,
    type: 'x',
    p: [''],
  },
  {
    text: '{"type":"action","content":{"id":1,"type":"x","p":[hello world, a b ]}}',
    reading: 'action',
    id: 1,
    type: 'x',
    p: ['hello world', 'a b'],
  },
  {
    text: '{"type":"action";"content":{"id":1;"type":"x";"p":[];};}',
    reading: 'action',
    id: 1,
    type: 'x',
    p: [],
  },
  {
    text: '{"type":"action","content":{"id":1,"type":"x","p":[]}} trailing garbage',
    reading: 'action',
    id: 1,
    type: 'x',
    p: [],
  },
  {
    text: '{"type":"action","type":"action","content":{}}',
    reading: 'invalid-json',
    error: 'Duplicate key "type"',
  },
  {
    text: '{"type":"action","content":{"id":1,"id":2,"p":[]}}',
    reading: 'invalid-json',
    error: 'Duplicate key "id"',
  },
  { text: 'this is not json', reading: 'invalid-json', error: "A JSONObject text must begin with '{'" },
  { text: '', reading: 'invalid-json', error: "A JSONObject text must begin with '{'" },
  { text: '   ', reading: 'invalid-json', error: "A JSONObject text must begin with '{'" },
  { text: '{', reading: 'invalid-json', error: "A JSONObject text must end with '}'" },
  { text: '{"type":"action","content":{"id":', reading: 'invalid-json', error: 'Missing value' },
  { text: '{"type":"act\nion"}', reading: 'invalid-json', error: 'Unterminated string' },
  { text: '{"type":"a\\qb"}', reading: 'invalid-json', error: 'Illegal escape.' },
  { text: '{"type":"\\u0041\\u-001\\/\\\'"}', reading: 'no-content', messageType: "A￿/'" },
  { text: '{"type":"\\u00"}', reading: 'invalid-json', error: 'Illegal escape.' },
  { text: '{"a" 1}', reading: 'invalid-json', error: "Expected a ':' after a key" },
  { text: '{"a":1 "b":2}', reading: 'invalid-json', error: "Expected a ',' or '}'" },
  { text: '[1,2]', reading: 'invalid-json', error: "A JSONObject text must begin with '{'" },
  { text: '{"a":}', reading: 'invalid-json', error: 'Missing value' },
  { text: '{"a":1,}', reading: 'no-content', messageType: '' },
  { text: '{"a":[1 2]}', reading: 'no-content', messageType: '' },
  { text: '{"a":[1', reading: 'invalid-json', error: "Expected a ',' or ']'" },
  { text: '{"a":#}', reading: 'invalid-json', error: 'Missing value' },
  { text: '{"a":b/c}', reading: 'invalid-json', error: "Expected a ',' or '}'" },
  { text: '{"a":x=y}', reading: 'invalid-json', error: "Expected a ',' or '}'" },
  { text: '{,}', reading: 'invalid-json', error: 'Missing value' },
  { text: '{"a":1,,"b":2}', reading: 'invalid-json', error: 'Missing value' },
  {
    text: '{"type":"auth-request","content":{"user":"agentA1","pw":1}}',
    reading: 'auth-request',
    user: 'agentA1',
    pw: '1',
  },
  { text: '{"type":"auth-request","content":{"user":null}}', reading: 'auth-request', user: '', pw: '' },
  { text: '{"type":5,"content":{}}', reading: 'other', messageType: '5' },
  { text: '{"type":"status-request"}', reading: 'no-content', messageType: 'status-request' },
  { text: '{"type":"status-request","content":[]}', reading: 'no-content', messageType: 'status-request' },
  { text: '{1:2,true:3,null:4,"content":{}}', reading: 'other', messageType: '' },
  {
    text: '{"type":"action","content":{"id":1,"type":"x","p":["é", "\\u00e9"]}}',
    reading: 'action',
    id: 1,
    type: 'x',
    p: ['é', 'é'],
  },
  {
    text: '{"type":"action","content":{"id":1,"type":"x","p":[-, --1, +1, 1e, 1.2.3, 0x1F, 1_000, 1-2]}}',
    reading: 'action',
    id: 1,
    type: 'x',
    p: ['-', '--1', '+1', '1e', '1.2.3', '0x1F', '1_000', '1-2'],
  },
];
