// The stages' runtime-written WebAssembly gets function names for the profilers: a name
// section from the module's own exports, and where in our code each module was built.
import { describe, expect, it } from 'vitest';
import { assemble } from '../steps/09-simd-wasm/wasm.ts';
import { COMPRESS4X } from '../steps/09-simd-wasm/compress4x.ts';
import { exportedFunctions, moduleOfUrl, nameWasmModules, withNameSection } from '../src/core/profile/wasm-names.ts';

describe('WebAssembly names for profiles', () => {
  const bytes = assemble(COMPRESS4X);

  it('reads the export section and appends a name section that WebAssembly accepts', () => {
    expect([...exportedFunctions(bytes)]).toEqual([[0, 'compress4x']]);
    const named = withNameSection(bytes, 'stage-module-0');
    expect(named.subarray(0, bytes.length)).toEqual(bytes);
    expect(WebAssembly.validate(named)).toBe(true);
    const sections = WebAssembly.Module.customSections(new WebAssembly.Module(named), 'name');
    expect(sections).toHaveLength(1);
    // Module name (subsection 0), then function 0 named compress4x (subsection 1).
    const text = new TextDecoder().decode(sections[0]);
    expect(text).toContain('stage-module-0');
    expect(text).toContain('compress4x');
    // A module that has names keeps them.
    expect(withNameSection(named, 'other')).toEqual(named);
  });

  it('records where each module was built, by the name V8 puts in its url', () => {
    const wasm = { Module: WebAssembly.Module } as typeof WebAssembly;
    const origins = nameWasmModules(wasm);
    const module = new wasm.Module(bytes);
    expect(module).toBeInstanceOf(WebAssembly.Module);
    expect(WebAssembly.Module.exports(module)).toEqual([{ name: 'compress4x', kind: 'function' }]);
    const origin = origins.get('stage-module-0');
    expect(origin?.url).toMatch(/profile-wasm-names\.test\.ts$/);
    expect(origin?.lineNumber).toBeGreaterThanOrEqual(0);
    expect(moduleOfUrl('wasm://wasm/stage-module-0-8acf85e2')).toBe('stage-module-0');
    expect(moduleOfUrl('wasm://wasm/8acf85e2')).toBeUndefined();
  });
});
