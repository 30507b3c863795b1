#!/usr/bin/env bash
# make_seeds.sh SEED_TRACES [SEEDS_DIR] - (re)writes the committed seed
# corpora of the fuzzers (tests/fuzz/seeds/<fuzzer>/): the binary traces
# SEED_TRACES writes (the decoder tests' shapes and a real recorder buffer)
# for fuzz_txtb and fuzz_decode; their Intel HEX (linear and segment
# addressing), S-record (S1/S3, with a count record), ASCII hex (xxd -p,
# spaced, C array as .array.txt: a .c file would be clang-formatted) copies for the loaders and fuzz_decode; hand-written
# records of every type; good and bad .trxc files; ELF objects (needs
# arm-none-eabi-gcc, gcc, riscv64-unknown-elf-gcc). Needs objcopy and xxd.
# Run it after changing seed_traces.c and commit the result.
set -euo pipefail
gen=$1
here=$(cd "$(dirname "$0")" && pwd)
seeds=${2:-$here/seeds}
for tool in objcopy xxd; do
  command -v $tool >/dev/null || { echo "make_seeds: $tool not found" >&2; exit 2; }
done
rm -rf "$seeds"
for f in fuzz_txtb fuzz_decode fuzz_ihex fuzz_srec fuzz_ascii fuzz_trxc fuzz_elf; do mkdir -p "$seeds/$f"; done
seeds=$(cd "$seeds" && pwd)

"$gen" "$seeds/fuzz_txtb"
cd "$seeds/fuzz_txtb" # relative names: objcopy's S0 record and xxd -i's names hold them
for trace in *.trx; do
  name=$(basename "$trace" .trx)
  cp "$trace" "../fuzz_decode/"
  objcopy -I binary -O ihex --change-addresses 0x20000000 "$trace" "../fuzz_ihex/$name.hex"
  objcopy -I binary -O ihex --change-addresses 0x18000 "$trace" "../fuzz_ihex/$name.seg.hex"
  objcopy -I binary -O srec "$trace" "../fuzz_srec/$name.s19"
  objcopy -I binary -O srec --srec-len=32 --srec-forceS3 --change-addresses 0x20000000 \
    "$trace" "../fuzz_srec/$name.s3"
  xxd -p "$trace" > "../fuzz_ascii/$name.txt"
  xxd -p -c 16 "$trace" | sed 's/../& /g' > "../fuzz_ascii/$name.spaced.txt"
  xxd -i "$trace" > "../fuzz_ascii/$name.array.txt"
done
cd - >/dev/null
for name in model_le wrapped recorder; do
  cp "$seeds/fuzz_ihex/$name.hex" "$seeds/fuzz_srec/$name.s19" "$seeds/fuzz_ascii/$name.array.txt" \
    "$seeds/fuzz_decode/"
done

# Hand-written: every record type, separators, a count record, console noise.
printf ':020000021200EA\r\n:0200040055AAFB\r\n:0400000300003800C1\r\n:04000005000000CD2A\r\n:00000001FF\r\n' \
  > "$seeds/fuzz_ihex/hand_types.hex"
printf ':02000004FFFFFC\n:01000000AB54\n:0100000011EE:0100010022DC\n' > "$seeds/fuzz_ihex/hand_linear.hex"
printf 'boot banner\n:0100000011EE\nlog line\n:00000001FF\n' > "$seeds/fuzz_ihex/hand_noise.hex"
printf 'S00F000068656C6C6F202020202000003C\nS111003848656C6C6F20776F726C642E0A0042\nS5030001FB\nS9030000FC\n' \
  > "$seeds/fuzz_srec/hand_hello.s19"
printf 'S2080123450102030484\nS30900000010AABBCCDDD8\nS604000002F9\nS804000000FB\n' > "$seeds/fuzz_srec/hand_s2s3.srec"
printf '54 58 54 42\r\n\tab cd EF 01\n0203\n' > "$seeds/fuzz_ascii/hand_spaced.txt"
printf '/* dump */ static const uint8_t b[] = {\n  0x54, 0x58, // id\n  0x54, 0x42,\n};\n' \
  > "$seeds/fuzz_ascii/hand_array.txt"
printf 'comment line\nStart\n4096,Phase,PH,(255,0,0),(0,0,0),Seq,Magic,Id,Not\n5000, Marker ,MK,( 1, 2, 3),(4,5,6),a,b,c,d\r\nEnd\n' \
  > "$seeds/fuzz_trxc/good.trxc"
printf 'Start\n4096,Name,TOOLONG,(1,2,3),(4,5,6),a,b,c,d\nEnd\n' > "$seeds/fuzz_trxc/bad.trxc"
# event descriptions (docs/event-descriptions.md) go through the same parser
printf '# app\nid,name,extra,meaning,field1,field2,field3,field4\n4096,Motor Start,x,send,Speed,Dir:i32,Obj::object,Raw:hex:count\n12,Pool,y,,,,,\r\n' \
  > "$seeds/fuzz_trxc/good_description.csv"
printf 'id,name,field1\n4096,x,a:float\n' > "$seeds/fuzz_trxc/bad_description.csv"
cp "$here/../../recorder/integrations/freertos/trx_freertos_events.csv" "$seeds/fuzz_trxc/freertos_description.csv"
# ELF objects of the toolchains trx meets (also test_elf's real-toolchain cases)
printf 'int counter;\nstatic char buf[64];\nvoid task(void){counter++; buf[0]=1;}\nint main(void){task();return buf[0];}\n' \
  > "$seeds/s.c"
arm-none-eabi-gcc -mthumb -Os -c "$seeds/s.c" -o "$seeds/fuzz_elf/arm_le.elf"
arm-none-eabi-gcc -mthumb -mbig-endian -Os -c "$seeds/s.c" -o "$seeds/fuzz_elf/arm_be.elf"
gcc -Os -c "$seeds/s.c" -o "$seeds/fuzz_elf/x86_64.elf"
riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -Os -c "$seeds/s.c" -o "$seeds/fuzz_elf/rv32.elf"
rm "$seeds/s.c"
echo "make_seeds: $(find "$seeds" -type f | wc -l) files, $(du -sk "$seeds" | cut -f1) KiB in $seeds"
