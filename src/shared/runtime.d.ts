/**
 * The few runtime APIs shared code may use: both browsers and Node.js provide them, so they are declared here
 * instead of pulling in the DOM or Node type libraries (tsconfig.shared.json compiles src/shared without either).
 */
interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}
declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  decode(input?: ArrayBufferView | ArrayBuffer): string;
}
