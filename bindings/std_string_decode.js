// Embind's conversion of std::string, as Emscripten 3.1.6 has it (src/embind/embind.js), with
// one change: a string coming back from the core is decoded in one call of the glue's
// TextDecoder. 3.1.6 first walks every byte in JavaScript looking for embedded zero bytes, then
// UTF8ToString walks the segment again to find its end, and only then decodes it; the core's
// answers are JSON of up to a hundred kilobytes (a trace of 16 tokens), read at every edit.
// TextDecoder keeps a zero byte as U+0000, which is what 3.1.6's segments joined by
// String.fromCharCode(0) give; without a TextDecoder the 3.1.6 way is kept. The other direction
// is 3.1.6's, unchanged. Linked with --js-library, which overrides the library's definition.
mergeInto(LibraryManager.library, {
  _embind_register_std_string__deps: [
    '$readLatin1String', '$registerType', '$simpleReadValueFromPointer', '$throwBindingError'],
  _embind_register_std_string: function(rawType, name) {
    name = readLatin1String(name);
    var stdStringIsUTF8 = (name === 'std::string');

    registerType(rawType, {
      name: name,
      'fromWireType': function(value) {
        var length = HEAPU32[value >> 2];
        var payload = value + 4;
        var str;
        if (stdStringIsUTF8 && typeof UTF8Decoder != 'undefined' && UTF8Decoder) {
          str = UTF8Decoder.decode(HEAPU8.subarray(payload, payload + length));
        } else if (stdStringIsUTF8) {
          var decodeStartPtr = payload;
          for (var i = 0; i <= length; ++i) {
            var currentBytePtr = payload + i;
            if (i == length || HEAPU8[currentBytePtr] == 0) {
              var stringSegment = UTF8ToString(decodeStartPtr, currentBytePtr - decodeStartPtr);
              str = (str === undefined) ? stringSegment : str + String.fromCharCode(0) + stringSegment;
              decodeStartPtr = currentBytePtr + 1;
            }
          }
        } else {
          var a = new Array(length);
          for (var i = 0; i < length; ++i) {
            a[i] = String.fromCharCode(HEAPU8[payload + i]);
          }
          str = a.join('');
        }
        _free(value);
        return str;
      },
      'toWireType': function(destructors, value) {
        if (value instanceof ArrayBuffer) {
          value = new Uint8Array(value);
        }
        var valueIsOfTypeString = (typeof value == 'string');
        if (!(valueIsOfTypeString || value instanceof Uint8Array || value instanceof Uint8ClampedArray || value instanceof Int8Array)) {
          throwBindingError('Cannot pass non-string to std::string');
        }
        var length = (stdStringIsUTF8 && valueIsOfTypeString) ? lengthBytesUTF8(value) : value.length;
        var ptr = _malloc(4 + length + 1);
        HEAPU32[ptr >> 2] = length;
        if (stdStringIsUTF8 && valueIsOfTypeString) {
          stringToUTF8(value, ptr + 4, length + 1);
        } else if (valueIsOfTypeString) {
          for (var i = 0; i < length; ++i) {
            var charCode = value.charCodeAt(i);
            if (charCode > 255) {
              _free(ptr);
              throwBindingError('String has UTF-16 code units that do not fit in 8 bits');
            }
            HEAPU8[ptr + 4 + i] = charCode;
          }
        } else {
          for (var i = 0; i < length; ++i) {
            HEAPU8[ptr + 4 + i] = value[i];
          }
        }
        if (destructors !== null) {
          destructors.push(_free, ptr);
        }
        return ptr;
      },
      'argPackAdvance': 8,
      'readValueFromPointer': simpleReadValueFromPointer,
      destructorFunction: function(ptr) { _free(ptr); },
    });
  },
});
