// Prints random and edge-case field operations (mod p) with their results for test/check.py.
#include "field.h"
#include <cstdio>
#include <cstdlib>
using namespace msm;
static uint64_t rnd(){ return ((uint64_t)rand()<<42)^((uint64_t)rand()<<21)^rand(); }
static void pr(const Fe& a){ Fe t=a; fe_normalize(t); for(int i=3;i>=0;i--) printf("%016lx",t.v[i]); }
static void prraw(const Fe& t){ for(int i=3;i>=0;i--) printf("%016lx",t.v[i]); }
int main(){
  for(int k=0;k<20000;k++){
    Fe a,b; for(int i=0;i<4;i++){a.v[i]=rnd();b.v[i]=rnd();}
    int mode=k%6;
    // weakly reduced inputs: any value < 2^256
    if(mode==1){ a.v[3]=a.v[2]=a.v[1]=~0ULL; a.v[0]=0xFFFFFFFEFFFFFC2FULL + (rand()%100); }
    if(mode==2){ b.v[3]=b.v[2]=b.v[1]=~0ULL; b.v[0]=~0ULL - (rand()%3); }
    if(mode==3){ a.v[1]=a.v[2]=a.v[3]=0; a.v[0]=rand()%3; }
    if(mode==4){ for(int i=0;i<4;i++) b.v[i]=a.v[i]; }
    Fe m,q,s,d,ng,m3; fe_mul(m,a,b); fe_sqr(q,a); fe_add(s,a,b); fe_sub(d,a,b); fe_neg(ng,a); fe_mul_small(m3,a,8);
    prraw(a);printf(" ");prraw(b);printf(" ");pr(m);printf(" ");pr(q);printf(" ");pr(s);printf(" ");pr(d);printf(" ");pr(ng);printf(" ");pr(m3);printf("\n");
  }
}
